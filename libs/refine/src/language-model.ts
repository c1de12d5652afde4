/**
 * The port refinement talks to: a chat model that takes a conversation and returns the
 * assistant's next message as text. The OpenAI-compatible client is one adapter; tests and
 * other providers can supply their own.
 */

export type ChatRole = 'system' | 'user' | 'assistant';

/** One message of a chat conversation, as chat-completion APIs exchange them. */
export interface ChatMessage {
  role: ChatRole;
  content: string;
}

export interface CompletionOptions {
  /** Aborts the call (and any wait between retries), e.g. when the job is cancelled. */
  signal?: AbortSignal;
}

export interface LanguageModel {
  /** Names the model in notes and logs, e.g. `gpt-4o-mini`. */
  readonly name: string;
  /**
   * The assistant's answer to `messages`. Rejects with a `LanguageModelError` when no usable
   * answer could be had (after any retries the adapter makes).
   */
  complete(messages: ChatMessage[], options?: CompletionOptions): Promise<string>;
}

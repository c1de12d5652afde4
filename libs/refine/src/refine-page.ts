import type { CompletionOptions, LanguageModel } from './language-model';
import { LanguageModelError } from './language-model-error';
import { refineMessages, type RefineInput } from './refine-prompt';
import { measureFidelity, textTokens } from './text-fidelity';

export interface RefineOutcome {
  /** The refined Markdown, or the page as it came when the answer was not trusted. */
  markdown: string;
  refined: boolean;
  /** Why the page was kept as it came, in one sentence naming the page. */
  note?: string;
}

/**
 * When an answer is trusted, measured on words (see `measureFidelity`):
 * - `minKept`: the answer must still hold at least this share of the page's words; less means
 *   it dropped, summarised, truncated or translated text.
 * - `maxAdded`: at most this share of the answer's words may be words the page does not have
 *   (column names the user gave excepted); more means it invented or duplicated text.
 */
export const REFINE_GUARD = { minKept: 0.85, maxAdded: 0.3 } as const;

/** A code fence around the whole answer: its info string and what it holds. */
const WHOLE_ANSWER_FENCE = /^\s*(`{3,})[ \t]*([\w-]*)[ \t]*\r?\n([\s\S]*?)\r?\n[ \t]*\1\s*$/;

/** Reasoning that some models (DeepSeek R1, Qwen) put before their answer. */
const LEADING_THINK_BLOCK = /^\s*<think>[\s\S]*?<\/think>/i;

/**
 * Asks `model` to correct one page's Markdown (reading order, headings, lists, tables, broken
 * lines) and keeps its answer only when it is the same text, better laid out. A page without
 * words is returned as it is, without a call. A failed call, an empty or non-text answer, or
 * one that drops or invents text (`REFINE_GUARD`) leaves the page as it came, with a note.
 * Only a cancel through `options.signal` rejects: refinement never fails a page otherwise.
 */
export async function refinePage(
  model: LanguageModel,
  input: RefineInput,
  options: CompletionOptions = {},
): Promise<RefineOutcome> {
  if (textTokens(input.markdown).length === 0) {
    return keep(input, 'it has no text to refine');
  }
  let answer: unknown;
  try {
    answer = await model.complete(refineMessages(input), options);
  } catch (error) {
    if (options.signal?.aborted) throw error;
    return keep(input, failureReason(error));
  }
  if (typeof answer !== 'string') return keep(input, "the language model's answer was not text");
  const markdown = unwrapAnswer(answer, input.markdown).trim();
  if (markdown === '') return keep(input, "the language model's answer was empty");
  const distrust = distrustReason(input, markdown);
  if (distrust !== undefined) return keep(input, distrust);
  return { markdown: input.markdown.endsWith('\n') ? `${markdown}\n` : markdown, refined: true };
}

/**
 * Why the answer is not the page's text, or undefined when it is: checked with
 * `REFINE_GUARD` against the page, column names counting as the page's own words.
 */
function distrustReason(input: RefineInput, answer: string): string | undefined {
  const fidelity = measureFidelity(input.markdown, answer, input.columns ?? []);
  if (fidelity.kept < REFINE_GUARD.minKept) {
    return `the language model's answer left out ${percent(1 - fidelity.kept)} of the page's words`;
  }
  if (fidelity.added > REFINE_GUARD.maxAdded) {
    return `${percent(fidelity.added)} of the words in the language model's answer are not on the page`;
  }
  return undefined;
}

/**
 * The answer without a leading reasoning block and without a code fence wrapped around all of
 * it. A fence tagged `markdown` or `md` is always removed; an untagged one only when the page
 * itself is not one fenced block, so a page that is all code keeps its fence.
 */
export function unwrapAnswer(answer: string, original: string): string {
  const text = answer.replace(LEADING_THINK_BLOCK, '');
  const fence = WHOLE_ANSWER_FENCE.exec(text);
  if (!fence) return text;
  const info = fence[2].toLowerCase();
  const wrapsMarkdown = info === 'markdown' || info === 'md' || (info === '' && !WHOLE_ANSWER_FENCE.test(original));
  return wrapsMarkdown ? fence[3] : text;
}

function keep(input: RefineInput, reason: string): RefineOutcome {
  return { markdown: input.markdown, refined: false, note: `Kept ${input.pageLabel} as extracted because ${reason}.` };
}

/** A failed call as a clause, e.g. `the language model answered 401: Invalid API key`. */
function failureReason(error: unknown): string {
  if (error instanceof LanguageModelError) return `the language model ${error.detail}`;
  const message =
    typeof error === 'object' && error !== null && 'message' in error ? String(error.message) : String(error);
  return `the language model call failed (${message.replace(/\s+/g, ' ').replace(/\.$/, '').slice(0, 200)})`;
}

function percent(share: number): string {
  return `${Math.round(share * 100)}%`;
}

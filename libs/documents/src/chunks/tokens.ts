import { countTokens as cl100kCount } from 'gpt-tokenizer/cjs/encoding/cl100k_base';

/**
 * The tokenizer chunks are measured with: OpenAI's `cl100k_base` encoding (that of the
 * text-embedding-3 and ada-002 embedding models), as the `gpt-tokenizer` package ships it (its
 * vocabulary is in the package; nothing is fetched). Other embedding models' tokenizers count
 * within a few percent of it on English text.
 */
export const TOKENIZER = 'cl100k_base';

/** Text is counted as written: a special token's spelling in a document (`<|endoftext|>`) is plain text. */
const AS_TEXT = { disallowedSpecial: new Set<string>() };

/** How many `cl100k_base` tokens `text` is. */
export function countTokens(text: string): number {
  return text === '' ? 0 : cl100kCount(text, AS_TEXT);
}

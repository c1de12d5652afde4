import type { LanguageModel } from './language-model';

/**
 * Asks the language model which table header each requested column corresponds to. Returns,
 * per column, the index of its header or null. Throws when the answer is not a JSON array of
 * that length holding only valid indexes or nulls, so the caller can fall back to its own
 * matching.
 */
export async function mapColumnsWithModel(
  model: LanguageModel,
  headers: string[],
  columns: string[],
): Promise<(number | null)[]> {
  const answer = await model.complete([
    {
      role: 'system',
      content:
        'You map spreadsheet columns. Given table headers (numbered from 0) and the column names a user wants, ' +
        'answer with only a JSON array with one entry per wanted column, in order: the number of the header ' +
        'holding that data, or null when no header does. No other text.',
    },
    {
      role: 'user',
      content: `Headers:\n${headers.map((h, i) => `${i}: ${h}`).join('\n')}\n\nWanted columns:\n${columns
        .map((c) => `- ${c}`)
        .join('\n')}`,
    },
  ]);
  const json = /\[[\s\S]*\]/.exec(answer)?.[0];
  const parsed: unknown = json ? JSON.parse(json) : undefined;
  const valid =
    Array.isArray(parsed) &&
    parsed.length === columns.length &&
    parsed.every((v) => v === null || (Number.isInteger(v) && (v as number) >= 0 && (v as number) < headers.length));
  if (!valid) throw new Error(`the language model's column mapping is not usable: ${answer.slice(0, 200)}`);
  return parsed as (number | null)[];
}

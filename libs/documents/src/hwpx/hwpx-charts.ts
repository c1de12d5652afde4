import { decodeCharacterReferences } from '@docconv/characters';
import { DomainError } from '@docconv/contracts';
import type { DecompressionBudget } from '../decompression';
import { readChart, type Chart } from '../office/charts';
import { readXmlPart } from '../office/ooxml';
import { withZip } from '../zip/zip-reader';

/* The charts an HWPX package holds as OOXML chart parts. */

/**
 * The charts the sections name (`<hp:chart chartIDRef="Chart/chart1.xml">`), by that name. Each is an OOXML chart part in the package, with its cached data, written as the
 * Office extractors write charts. A part that is missing or cannot be read is left out; only
 * going past the file's decompression limits is an error.
 */
export async function readCharts(
  path: string,
  sections: string[],
  budget: DecompressionBudget,
): Promise<Map<string, Chart>> {
  const refs = new Set(
    sections.flatMap((xml) => [...xml.matchAll(/\bchartIDRef="([^"]*)"/g)].map((m) => decodeCharacterReferences(m[1]))),
  );
  const charts = new Map<string, Chart>();
  if (refs.size === 0) return charts;
  try {
    await withZip(
      path,
      async (zip) => {
        for (const ref of refs) {
          try {
            const chart = await readXmlPart(zip, ref.replace(/^\/+/, ''));
            if (chart) charts.set(ref, readChart(chart));
          } catch (error) {
            if (error instanceof DomainError && error.code === 'payload_too_large') throw error;
          }
        }
      },
      budget,
    );
  } catch (error) {
    if (error instanceof DomainError && error.code === 'payload_too_large') throw error;
  }
  return charts;
}

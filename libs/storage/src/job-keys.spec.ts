import {
  conversionPath,
  documentPath,
  imagePath,
  imagePrefix,
  inputPath,
  inputsPrefix,
  markdownPath,
  pageReportPath,
  previewPath,
  rangePath,
  rangesPrefix,
  resultFilePath,
  structuredResultPath,
} from './job-keys';
import { assertStoragePath } from './storage.port';

const JOB = '3f1c0d2e-5b7a-4c1e-9d2f-6a8b0c4e1f27';

describe('job keys', () => {
  it('are the keys jobs have always been stored under (stored jobs keep being found)', () => {
    expect(inputPath(JOB, 2, 'scan.pdf')).toBe(`inputs/${JOB}/2-scan.pdf`);
    expect(inputsPrefix(JOB)).toBe(`inputs/${JOB}`);
    expect(markdownPath(JOB)).toBe(`results/${JOB}/result.md`);
    expect(structuredResultPath(JOB)).toBe(`results/${JOB}/result.json`);
    expect(pageReportPath(JOB)).toBe(`results/${JOB}/pages.json`);
    expect(imagePath(JOB, 'images/f2-p3-1.png')).toBe(`results/${JOB}/images/f2-p3-1.png`);
    expect(previewPath(JOB, 1, 12)).toBe(`results/${JOB}/previews/f1-p12.png`);
    expect(rangePath(JOB, 0, 51)).toBe(`results/${JOB}/ranges/0/51.json`);
    expect(rangesPrefix(JOB)).toBe(`results/${JOB}/ranges`);
    expect(conversionPath(JOB, 'xlsx_basic')).toBe(`results/${JOB}/result.basic.xlsx`);
    expect(conversionPath(JOB, 'xlsx_advanced')).toBe(`results/${JOB}/result.advanced.xlsx`);
    expect(conversionPath(JOB, 'docx')).toBe(`results/${JOB}/result.docx`);
    expect(conversionPath(JOB, 'pptx')).toBe(`results/${JOB}/result.pptx`);
    expect(conversionPath(JOB, 'hwpx')).toBe(`results/${JOB}/result.hwpx`);
  });

  it('keeps the document beside the Markdown, under the job results', () => {
    expect(documentPath(JOB)).toBe(`results/${JOB}/document.json`);
    expect(() => assertStoragePath(documentPath(JOB))).not.toThrow();
  });

  it('names the first file’s pictures plainly and a later file’s with its number', () => {
    expect(imagePrefix(1)).toBe('images/');
    expect(imagePrefix(3)).toBe('images/f3-');
  });

  it('resolves a picture link inside the job’s results only', () => {
    expect(resultFilePath(JOB, 'images/f2-p3-1.png')).toBe(`results/${JOB}/images/f2-p3-1.png`);
    expect(resultFilePath(JOB, 'images/../result.md')).toBeUndefined();
    expect(resultFilePath(JOB, '../other/images/a.png')).toBeUndefined();
    expect(resultFilePath(JOB, 'https://example.com/a.png')).toBeUndefined();
  });
});

import { downloadName } from '@docconv/storage';
import { jobTitle } from './job-title';

describe('jobTitle', () => {
  it('names a job made from one archive after the archive', () => {
    const files = ['a.pdf', 'b.docx', 'c/d.png'].map((name) => ({
      displayPath: `bundle.zip/${name}`,
      upload: 'bundle.zip',
    }));
    expect(jobTitle(files)).toBe('bundle.zip');
    expect(jobTitle(files.slice(0, 1))).toBe('bundle.zip');
  });

  it('names a job of one file after the file', () => {
    expect(jobTitle([{ displayPath: 'Report.pdf', upload: 'Report.pdf' }])).toBe('Report.pdf');
  });

  it('names a job of several files after the first and counts the others', () => {
    expect(
      jobTitle([
        { displayPath: 'a.pdf', upload: 'a.pdf' },
        { displayPath: 'b.pdf', upload: 'b.pdf' },
        { displayPath: 'c.pdf', upload: 'c.pdf' },
      ]),
    ).toBe('a.pdf (+2 more)');
    expect(
      jobTitle([
        { displayPath: 'mail.eml', upload: 'mail.eml' },
        { displayPath: 'mail.eml/scan.pdf', upload: 'mail.eml' },
      ]),
    ).toBe('mail.eml (+1 more)');
    expect(
      jobTitle([
        { displayPath: 'one.zip/a.pdf', upload: 'one.zip' },
        { displayPath: 'two.zip/b.pdf', upload: 'two.zip' },
      ]),
    ).toBe('one.zip/a.pdf (+1 more)');
  });

  it('gives download names without the first file’s extension (downloadName reads the count)', () => {
    const title = jobTitle([
      { displayPath: 'report.pdf', upload: 'report.pdf' },
      { displayPath: 'appendix.pdf', upload: 'appendix.pdf' },
    ]);
    expect(downloadName(title, 'pptx')).toBe('report-and-1-more.pptx');
    expect(downloadName(jobTitle([{ displayPath: 'report.pdf', upload: 'report.pdf' }]), 'pptx')).toBe('report.pptx');
  });

  it('keeps at most 200 characters, whole', () => {
    const title = jobTitle([{ displayPath: `${'가'.repeat(250)}.pdf`, upload: `${'가'.repeat(250)}.pdf` }]);
    expect([...title]).toHaveLength(200);
    expect(title).toBe('가'.repeat(200));
  });
});

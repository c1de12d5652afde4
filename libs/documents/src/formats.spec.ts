import { ACCEPTED_FORMATS, acceptedFormat, acceptedFormats, viaLibreOfficeEntries } from './formats';

describe('the format table', () => {
  it('lets refinement rework PDF, office and HWP files only (spec 4.3)', () => {
    const refinable = ACCEPTED_FORMATS.filter((format) => format.refinable).map((format) => format.kind);
    expect(refinable).toEqual(['pdf', 'docx', 'pptx', 'xlsx', 'hwp', 'hwpx']);
  });

  it('reads recordings on the speech pool and what LibreOffice converts on the office pool', () => {
    const byQueue = (queue: string) => ACCEPTED_FORMATS.filter((f) => f.queue === queue).map((f) => f.kind);
    expect(byQueue('speech')).toEqual(['audio', 'video']);
    expect(byQueue('office')).toEqual(['odt', 'ods', 'odp', 'doc', 'xls', 'ppt', 'rtf']);
    // The inspector and the reader of each of them come from one list: the office pool's rows.
    expect(viaLibreOfficeEntries((kind) => `${kind}!`)).toEqual(
      Object.fromEntries(byQueue('office').map((kind) => [kind, `${kind}!`])),
    );
  });

  it('lists each kind once, in the table order, and answers a kind with its row', () => {
    const kinds = ACCEPTED_FORMATS.map((format) => format.kind);
    expect(new Set(kinds).size).toBe(kinds.length);
    expect(kinds.slice(0, 3)).toEqual(['pdf', 'docx', 'pptx']);
    expect(acceptedFormat('doc')).toEqual(ACCEPTED_FORMATS.find((format) => format.kind === 'doc'));
    expect(acceptedFormat('doc')).toMatchObject({ label: 'DOC', fileType: 'docx', queue: 'office' });
    expect(acceptedFormats(false).map((format) => format.kind)).not.toContain('audio');
  });
});

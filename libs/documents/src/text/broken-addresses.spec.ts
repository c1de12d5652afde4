import { continuesAddress } from './broken-addresses';

describe('addresses broken at a line end', () => {
  it.each([
    // A path goes on after a slash, a dot or a break inside a word.
    ['Data are available at http://www.census.gov/', 'popest/data/index.html; 2011.'],
    ['Available at http://www.cdc.', 'gov/injury/wisqars/index.html.'],
    ['Available at http://www.cdc.gov/nchs/nvss.', 'htm.'],
    ['See http://www.cdc.gov/nchs/data/nvsr/nvsr5', '9_02.pdf for the tables.'],
    ['(http://www.naacpartners.org/products/', 'presentations/national/2008.ppt).'],
    // After what no address ends with, whatever follows goes on.
    ['Search at https://example.org/find?q=', 'tables&page=2'],
    ['Write to press-office@', 'example.eu.'],
    ['The form at <www.example.org/apply-', 'now/index.html>.'],
    ['The report at www.example.org/S&A08', '_W1toW6.pdf.'],
  ])('%j goes on with %j', (text, next) => {
    expect(continuesAddress(text, next)).toBe(true);
  });

  it.each([
    // A sentence ends with the address, or a word follows it.
    ['Reports are at http://nces.ed.gov/das/library/reports.asp.', 'SOURCE: U.S. Department of Education.'],
    ['Numbers are from http://ope.ed.gov/security/.', 'Numbers shown for 2005 were revised.'],
    ['See http://example.com/', 'for details of the survey.'],
    ['More at www.example.org', 'and in the annex.'],
    ['Ask at http://example.org.', 'the office answers within a week.'],
    // No address at the end of the line: a path-like word after a full stop stays a word.
    ['The survey ended.', 'and/or the annex.'],
    ['well-', 'known results'],
    ['Send it to', 'office@example.org.'],
    // A list of addresses, one a line.
    ['https://en.wikipedia.org/wiki/List_of_Irish_Americans', 'https://en.wikipedia.org/wiki/List_of_German_Americans'],
    ['See www.example.org/a-', 'www.example.org/b'],
    // Specks a scan read as `2@` are no mailbox.
    ['S—eBg58 2@', 'oO=2 £a5'],
  ])('%j does not go on with %j', (text, next) => {
    expect(continuesAddress(text, next)).toBe(false);
  });
});

import { typedValue } from './typed-value';

function utc(year: number, month: number, day: number): Date {
  return new Date(Date.UTC(year, month - 1, day));
}

describe('typedValue', () => {
  describe('numbers', () => {
    it.each([
      ['42', 42, '0'],
      ['-7', -7, '0'],
      ['+3', 3, '0'],
      ['\u22125', -5, '0'],
      ['3.50', 3.5, '0.00'],
      ['.5', 0.5, '0.0'],
      ['0', 0, '0'],
      ['0.25', 0.25, '0.00'],
      ['1,234', 1234, '#,##0'],
      ['1,234.5', 1234.5, '#,##0.0'],
      ['-1,234,567.89', -1234567.89, '#,##0.00'],
      ['(1,234)', -1234, '#,##0;(#,##0)'],
      ['1.234,5', 1234.5, '#,##0.0'],
      ['1.234.567', 1234567, '#,##0'],
      ['12,5', 12.5, '0.0'],
      ['0,25', 0.25, '0.00'],
      ['1,2345', 1.2345, '0.0000'],
      ['1.234', 1.234, '0.000'],
      ['  99  ', 99, '0'],
    ])('%j is the number %p shown as %p', (text, value, numFmt) => {
      expect(typedValue(text)).toEqual({ value, numFmt });
    });

    it.each(['007', '01234', '1,23,456', '1.2.3', '12 345', '1e5', 'Infinity', '1234567890123456', '-', '1,234,5'])(
      '%j stays text',
      (text) => {
        expect(typedValue(text)).toEqual({ value: text });
      },
    );
  });

  describe('percentages', () => {
    it.each([
      ['12.5%', 0.125, '0.0%'],
      ['-3%', -0.03, '0%'],
      ['100 %', 1, '0%'],
      ['12,5%', 0.125, '0.0%'],
      ['14.3%', 0.143, '0.0%'],
      ['7.25%', 0.0725, '0.00%'],
    ])('%j is %p with format %p', (text, value, numFmt) => {
      expect(typedValue(text)).toEqual({ value, numFmt });
    });

    it('leaves a lone percent sign as text', () => {
      expect(typedValue('%')).toEqual({ value: '%' });
    });
  });

  describe('money', () => {
    it.each([
      ['$1,200.00', 1200, '"$"#,##0.00'],
      ['$5', 5, '"$"#,##0'],
      ['-$5.50', -5.5, '"$"#,##0.00'],
      ['$-5', -5, '"$"#,##0'],
      ['€ 15', 15, '"€ "#,##0'],
      ['15 €', 15, '#,##0" €"'],
      ['€1.234,50', 1234.5, '"€"#,##0.00'],
      ['₩1,000', 1000, '"₩"#,##0'],
      ['1,000원', 1000, '#,##0"원"'],
      ['1000원', 1000, '#,##0"원"'],
      ['¥500', 500, '"¥"#,##0'],
      ['£3.99', 3.99, '"£"#,##0.00'],
      ['USD 1,200', 1200, '"USD "#,##0'],
      ['1,200 KRW', 1200, '#,##0" KRW"'],
    ])('%j is %p with format %p', (text, value, numFmt) => {
      expect(typedValue(text)).toEqual({ value, numFmt });
    });

    it.each(['$x$', '$', '원', '$1,23,4', 'about $5', '$$5'])('%j stays text', (text) => {
      expect(typedValue(text)).toEqual({ value: text });
    });
  });

  describe('dates', () => {
    it.each([
      ['2024-03-05', utc(2024, 3, 5)],
      ['2024-3-5', utc(2024, 3, 5)],
      ['2024.03.05', utc(2024, 3, 5)],
      ['2024. 3. 5.', utc(2024, 3, 5)],
      ['2024/3/5', utc(2024, 3, 5)],
      ['5 March 2024', utc(2024, 3, 5)],
      ['5 Mar 2024', utc(2024, 3, 5)],
      ['March 5, 2024', utc(2024, 3, 5)],
      ['Sept 30, 2023', utc(2023, 9, 30)],
      ['2024년 3월 5일', utc(2024, 3, 5)],
      ['2024년3월5일', utc(2024, 3, 5)],
      ['2024年3月5日', utc(2024, 3, 5)],
      ['2024-02-29', utc(2024, 2, 29)],
    ])('%j is the date %p', (text, date) => {
      expect(typedValue(text)).toEqual({ value: date, numFmt: 'yyyy-mm-dd' });
    });

    it.each(['2023-02-29', '2024-13-01', '2024-00-10', '03/05/2024', '5 Smarch 2024', '1899-12-31', '2024-03'])(
      '%j stays text',
      (text) => {
        expect(typedValue(text)).toEqual({ value: text });
      },
    );
  });

  describe('dates with times, and times', () => {
    it.each([
      ['2024-01-01 0:00:00', new Date(Date.UTC(2024, 0, 1)), 'yyyy-mm-dd'],
      ['2024-03-05 14:30', new Date(Date.UTC(2024, 2, 5, 14, 30)), 'yyyy-mm-dd hh:mm'],
      ['2024-03-05T09:05:30', new Date(Date.UTC(2024, 2, 5, 9, 5, 30)), 'yyyy-mm-dd hh:mm:ss'],
    ])('%j is %p shown as %p', (text, value, numFmt) => {
      expect(typedValue(text)).toEqual({ value, numFmt });
    });

    it.each([
      ['10:30', 10.5 / 24, 'h:mm'],
      ['9:05:30', (9 * 3600 + 5 * 60 + 30) / 86_400, 'h:mm:ss'],
    ])('%j is the fraction of a day %p shown as %p', (text, value, numFmt) => {
      expect(typedValue(text)).toEqual({ value, numFmt });
    });

    it.each(['24:00', '10:60', '2024-03-05 25:00', '1:2', '3:1'])('%j stays text', (text) => {
      expect(typedValue(text)).toEqual({ value: text });
    });
  });

  describe('text', () => {
    it.each(['', '   ', 'North', '서울', '010-1234-5678', 'v1.2', 'Q1 2024', '1,234명'])(
      '%j stays text as given',
      (text) => {
        expect(typedValue(text)).toEqual({ value: text });
      },
    );
  });
});

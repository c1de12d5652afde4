import { HTML_CONTENT } from '@docconv/documents';
import { PAGE_FURNITURE } from '@docconv/model';

/** The upload's choices a job and its preview carry, described once for both. */
export const PAGE_FURNITURE_PROPERTY = {
  enum: PAGE_FURNITURE,
  description:
    'What the upload asked for running heads and feet, page numbers, headers and footers: drop, keep or separate.',
};

export const HTML_CONTENT_PROPERTY = {
  enum: HTML_CONTENT,
  description: 'What the upload asked to read of a web page: main (the article of a whole web page) or full.',
};

/**
 * Why a page (or an image frame) was not read, as a job's page report and its structured result
 * name it. A page that was not read is never charged: its price is refunded when the job finishes.
 *
 * - `deadline`: its reading was stopped by the safety valve (OCR_PAGE_DEADLINE_SECONDS);
 * - `engine_error`: the OCR engine failed on it;
 * - `no_text`: the engine found no text on it, though it is not blank;
 * - `low_confidence`: it was read too poorly to deliver;
 * - `unreadable`: the page itself could not be read (a damaged page, pages lost to repeated faults).
 */
export const PAGE_FAILURES = ['deadline', 'engine_error', 'no_text', 'low_confidence', 'unreadable'] as const;
export type PageFailure = (typeof PAGE_FAILURES)[number];

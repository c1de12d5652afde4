/*
 * The geometry every slide shares. Slides are laid out by estimate, since nothing here can measure rendered
 * text: lines are PowerPoint's single spacing (1.2 × the font size) and a slide takes at most MAX_BODY_LINES
 * lines of body text, which leaves spare room in the body area for estimates that fall short.
 */

/** 16:9 slide, in inches. */
export const SLIDE = { width: 10, height: 5.625 } as const;
export const TITLE_BOX = { x: 0.5, y: 0.25, w: 9, h: 0.8 } as const;
/** Where content goes, in inches: below the title, above the bottom edge. */
export const BODY = { x: 0.5, y: 1.15, w: 9, h: 4.2 } as const;
export const BODY_FONT_PT = 12;
/** The height of one line of body text, in inches. */
export const BODY_LINE_IN = (BODY_FONT_PT * 1.2) / 72;
/** Body lines (or their height in tables and pictures) one slide may hold: 20 lines are 4 in of the 4.2 in body. */
export const MAX_BODY_LINES = 20;
/** Space after each paragraph, in points, and what it costs in body lines. */
export const PARAGRAPH_SPACE_PT = 4;
export const PARAGRAPH_GAP_LINES = PARAGRAPH_SPACE_PT / (BODY_FONT_PT * 1.2);
/** Space between a text box and a table or picture, in body lines. */
export const ITEM_GAP_LINES = 0.5;
/** Screen resolution at which a picture's pixels are taken for its natural size. */
export const PICTURE_DPI = 96;

"""The detector's boxes fitted to the page's ink before the recognizer reads them.

EasyOCR's detector reads the page at a small scale (easyocr_server.py: a typical letter 10 pixels
high), where two things go wrong that the ink at the page's own scale shows plainly:
- rows that stand close (a table's, once its rules are taken out) run together in its map, and one
  box holds several lines: the recognizer reads one line per box, so three rows of figures come out
  as one jumble (split_stacked);
- a narrow character at either end of a word fades from the map, and its box stops short of it:
  the "1" of "1800", the "7" of "26.7", the "G" of "Géant" against a table's rule (reach_ink);
- a short word standing alone fades altogether: a table's "61" between its rules (unread_ink).

Boxes are EasyOCR's horizontal boxes, [x_min, x_max, y_min, y_max] with the margin that
group_text_box adds all round: `margin` times the smaller side of the box without it.
"""

import cv2
import numpy

# A box this many times as tall as the page's typical box is looked at for several lines.
STACKED = 1.6
# A line of ink thinner than this share of the typical text's height is part of the line next to
# it (an underline, a stray mark), never a line of its own.
THIN_LINE = 0.5
# Along a line cut out of a stacked box, a gap wider than this many times the line's height parts
# two pieces (a table's columns); a space between words is a third of it.
COLUMN_GAP = 1.0
# How far past a box, in the height of its text, a character is still taken into it (reach_ink):
# with the margin, about half a line's height from the text, where a table's next column stands
# further off; more than the gap around a decimal point.
REACH = 0.3
# Ink no box holds is read when it has a line's shape (unread_ink): pieces of it this far apart
# at most, in the typical text's height, make one word, and the word stands from LOWEST to
# HIGHEST of that height (smaller is a speck, a dot or a dash, taller a picture's part). A word of
# small letters without ascenders stands about 0.4 of it (the "x" that ticks a table's cell): one
# lower than SMALL is kept when its ink fills at most BLOT of its box, as strokes do; a bullet or a
# blot is solid.
WORD_GAP = 0.5
LOWEST = 0.3
SMALL = 0.5
HIGHEST = 1.5
BLOT = 0.6


def fit_to_ink(boxes, image, margin, free=()):
    """The boxes cut into lines where they hold several (split_stacked), then widened over the
    characters they cut off (reach_ink), on the image's ink (Otsu's threshold); and boxes around
    the words of ink no box holds (unread_ink), after them. The detector's free boxes (four
    corners, a slanted word) are read as they are, and their ink is theirs."""
    if not boxes:
        return boxes, []
    _, ink = cv2.threshold(image, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    slanted = [
        text_of([min(x for x, _ in c), max(x for x, _ in c), min(y for _, y in c), max(y for _, y in c)], margin)
        for c in free
    ]
    return reach_ink(split_stacked(boxes, ink, margin), ink, margin, slanted)


def text_of(box, margin):
    """The box without its margin: (x_min, x_max, y_min, y_max) of its text."""
    x0, x1, y0, y1 = box
    m = margin * min(x1 - x0, y1 - y0) / (1 + 2 * margin)
    return x0 + m, x1 - m, y0 + m, y1 - m


def with_margin(x0, x1, y0, y1, margin):
    """A box around the text from x0 to x1 and y0 to y1, with group_text_box's margin."""
    m = int(margin * min(x1 - x0, y1 - y0))
    return [x0 - m, x1 + m, y0 - m, y1 + m]


def runs(present, gap=0):
    """The runs (start, end) of true values along a row of booleans, runs apart by `gap` or less joined."""
    found = []
    for i in numpy.flatnonzero(numpy.diff(numpy.concatenate(([0], present.astype(numpy.int8), [0])))):
        if not found or len(found[-1]) == 2:
            found.append([int(i)])
        else:
            found[-1].append(int(i))
    joined = []
    for start, end in found:
        if joined and start - joined[-1][1] <= gap:
            joined[-1][1] = end
        else:
            joined.append([start, end])
    return joined


def split_stacked(boxes, ink, margin):
    """Each box taller than STACKED times the typical box (typical_height) whose ink falls into
    two lines or more, a blank row of pixels between them, cut into a box per line and, along the
    line, per piece of ink more than COLUMN_GAP of the line's height from the next. A line thinner
    than THIN_LINE of the typical text joins the line above it (or below, for the first), or is
    left out where the box's edge cuts it (a neighbouring line reaching into the margin). Other
    boxes stay as they are, in the detector's order."""
    if len(boxes) < 2:
        return boxes
    typical = typical_height(boxes, ink, margin)
    thin = THIN_LINE * typical / (1 + 2 * margin)
    height, width = ink.shape
    cut = []
    for box in boxes:
        x0, x1, y0, y1 = (max(0, box[0]), min(width, box[1]), max(0, box[2]), min(height, box[3]))
        if box[3] - box[2] <= STACKED * typical or x1 <= x0 or y1 <= y0:
            cut.append(box)
            continue
        region = ink[y0:y1, x0:x1] > 0
        lines = []
        for start, end in runs(region.any(axis=1)):
            if end - start < thin and (start == 0 or end == y1 - y0):
                continue  # the foot or the top of the line above or below, inside the box's margin
            if lines and (end - start < thin or lines[-1][1] - lines[-1][0] < thin):
                lines[-1][1] = end
            else:
                lines.append([start, end])
        if len(lines) < 2:
            cut.append(box)
            continue
        for top, bottom in lines:
            for left, right in runs(region[top:bottom].any(axis=0), COLUMN_GAP * (bottom - top)):
                cut.append(with_margin(x0 + left, x0 + right, y0 + top, y0 + bottom, margin))
    return cut


def typical_height(boxes, ink, margin):
    """The typical box's height: the boxes' median, unless most boxes hold two lines of ink or
    more (rows about as tall as the box's tallest, blank rows of pixels between them): on a page
    of short rows set close (a list of figures, a dense table) the detector may box every column
    whole, and the boxes' heights then say nothing of a line's. The typical height is then the
    median of the tallest line of ink in each box, with the margin round it."""
    height, width = ink.shape
    tallest, stacked = [], 0
    for box in boxes:
        x0, x1, y0, y1 = (max(0, box[0]), min(width, box[1]), max(0, box[2]), min(height, box[3]))
        if x1 <= x0 or y1 <= y0:
            continue
        lines = [end - start for start, end in runs((ink[y0:y1, x0:x1] > 0).any(axis=1))]
        if lines:
            tallest.append(max(lines))
            stacked += sum(line * 2 >= max(lines) for line in lines) >= 2
    boxed = float(numpy.median([y1 - y0 for _, _, y0, y1 in boxes]))
    if stacked * 2 <= len(boxes):
        return boxed
    return min(boxed, float(numpy.median(tallest)) * (1 + 2 * margin))


def reach_ink(boxes, ink, margin, fixed=()):
    """Each box widened over the ink it cut off. A box takes in each connected piece of ink
    (8-connected) that stands on its line (its middle within the box's height, and no taller than
    the box), reaches to within REACH of the box's text height past the box, and is not a character
    of another box (its middle inside another box's text, nor taken by a box before it); the pieces
    it takes may bring the next within reach (a decimal point, then the digit after it); its margin
    stops short of the text of another box on its line. A rule or a picture is taller than a line,
    and another word is further than a space away; neither is taken. `fixed` are the texts
    (x_min, x_max, y_min, y_max) of boxes read as they are: their ink is theirs. Returns the boxes,
    and the words of ink no box holds (unread_ink)."""
    _, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    stats = stats[1:]
    left, top = stats[:, cv2.CC_STAT_LEFT], stats[:, cv2.CC_STAT_TOP]
    right, bottom = left + stats[:, cv2.CC_STAT_WIDTH], top + stats[:, cv2.CC_STAT_HEIGHT]
    middle_x, middle_y = (left + right) / 2, (top + bottom) / 2
    heights = stats[:, cv2.CC_STAT_HEIGHT]
    widened = [list(box) for box in boxes]
    texts = [text_of(box, margin) for box in boxes] + list(fixed)
    owner = numpy.full(len(stats), -1)
    for i, (x0, x1, y0, y1) in enumerate(texts):
        inside = (middle_x >= x0) & (middle_x <= x1) & (middle_y >= y0) & (middle_y <= y1) & (owner < 0)
        owner[inside] = i
    for i, box in enumerate(widened):
        x0, x1, y0, y1 = box
        pad = texts[i][0] - x0
        reach = REACH * (texts[i][3] - texts[i][2])
        # A box never grows into the text of another box on its line.
        beside = [t for j, t in enumerate(texts) if j != i and t[2] < y1 and y0 < t[3]]
        least = max([t[1] for t in beside if t[1] <= texts[i][0]], default=-numpy.inf)
        most = min([t[0] for t in beside if t[0] >= texts[i][1]], default=numpy.inf)
        on_line = (middle_y >= y0) & (middle_y <= y1) & (heights <= y1 - y0) & ((owner < 0) | (owner == i))
        near = numpy.zeros(len(stats), dtype=bool)
        for _ in range(4):
            near = on_line & (right >= x0 - reach) & (left <= x1 + reach)
            if not near.any():
                break
            wider = (
                min(x0, round(max(least, left[near].min() - pad))),
                max(x1, round(min(most, right[near].max() + pad))),
            )
            if wider == (x0, x1):
                break
            x0, x1 = wider
        # What a box took is its own: a dash between two boxes goes to the first, not to both.
        owner[near & (owner < 0)] = i
        box[0], box[1] = x0, x1
    return widened, unread_ink(stats[owner < 0], texts, margin)


def unread_ink(pieces, texts, margin):
    """Boxes (with margin) around the words no box holds: pieces of ink (connected components'
    stats, left to right) on one line (their middles within half the typical text's height) and
    at most WORD_GAP of it apart make a word, kept when it stands from LOWEST to HIGHEST of that
    height (below SMALL only when not solid, see BLOT) and no box's text overlaps it. The typical
    text's height is the boxes' median."""
    if len(pieces) == 0 or not texts:
        return []
    typical = float(numpy.median([y1 - y0 for _, _, y0, y1 in texts]))
    gap = WORD_GAP * typical
    words, open_words = [], []
    for x, y, w, h, area in sorted(pieces.tolist()):
        if h > HIGHEST * typical:
            continue
        # Words ending further left than a gap take no more pieces (the pieces come left to right).
        open_words = [word for word in open_words if x - word[1] <= gap]
        middle = y + h / 2
        for word in open_words:
            if abs(word[4] - middle) <= typical / 2:
                word[1], word[2], word[3] = max(word[1], x + w), min(word[2], y), max(word[3], y + h)
                word[5] += area
                break
        else:
            words.append([x, x + w, y, y + h, middle, area])
            open_words.append(words[-1])
    boxes = []
    for x0, x1, y0, y1, _, ink in words:
        if not LOWEST * typical <= y1 - y0 <= HIGHEST * typical:
            continue
        if y1 - y0 < SMALL * typical and ink > BLOT * (x1 - x0) * (y1 - y0):
            continue
        if any(a0 < x1 and x0 < a1 and b0 < y1 and y0 < b1 for a0, a1, b0, b1 in texts):
            continue
        boxes.append(with_margin(x0, x1, y0, y1, margin))
    return boxes

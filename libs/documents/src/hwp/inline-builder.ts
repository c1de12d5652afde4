import type { Inline, TextInline } from '../hancom/model';
import { formatting, sameEmphasis, type CharShape } from '../hancom/styles';

/** Inlines in the making: text gathered while its emphasis stays the same, and open links. */
export class InlineBuilder {
  shape: CharShape | undefined;
  private readonly root: Inline[] = [];
  private readonly targets: Inline[][] = [this.root];
  /** Per open field, whether it is a link. */
  private readonly fields: boolean[] = [];
  private pending: TextInline | undefined;

  text(value: string): void {
    const next: TextInline = { type: 'text', text: value, ...formatting(this.shape) };
    if (this.pending && sameEmphasis(this.pending, next)) {
      this.pending.text += value;
      return;
    }
    this.flush();
    this.pending = next;
  }

  /** Adds an inline; a table, a chart or an object's text stands outside any link around it. */
  push(inline: Inline): void {
    this.flush();
    const outside = inline.type === 'table' || inline.type === 'objects' || inline.type === 'chart';
    this.targets[outside ? 0 : this.targets.length - 1].push(inline);
  }

  /** A field starts; a link (given its address) gathers the inlines up to its end. */
  openField(href: string | undefined): void {
    this.fields.push(href !== undefined);
    if (href === undefined) return;
    const link: Inline = { type: 'link', href, inlines: [] };
    this.push(link);
    this.targets.push(link.inlines);
  }

  closeField(): void {
    if (this.fields.pop() !== true) return;
    this.flush();
    if (this.targets.length > 1) this.targets.pop();
  }

  /** The inlines, without links that have neither an address nor text. */
  finish(): Inline[] {
    this.flush();
    return this.root.filter((inline) => inline.type !== 'link' || inline.href !== '' || inline.inlines.length > 0);
  }

  private flush(): void {
    if (this.pending) this.targets[this.targets.length - 1].push(this.pending);
    this.pending = undefined;
  }
}

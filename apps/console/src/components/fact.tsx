import type { ComponentChildren } from 'preact';

/** One entry of a facts list (`<dl class="facts">`): a term and its value. */
export function Fact(props: { term: string; valueClass?: string; children: ComponentChildren }) {
  return (
    <div>
      <dt>{props.term}</dt>
      <dd class={props.valueClass}>{props.children}</dd>
    </div>
  );
}

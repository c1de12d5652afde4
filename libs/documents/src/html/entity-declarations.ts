import { DomainError } from '@docconv/contracts';
import { readStart } from '../file-start';

/** A DOCTYPE with an internal subset that declares an entity. */
const ENTITY_DECLARATION = /<!DOCTYPE[^[>]*\[[^\]]*<!ENTITY/i;

/** How much of a page's start is searched: a DOCTYPE comes before any content. */
const HEAD_BYTES = 64 * 1024;

/**
 * Refuses a page whose DOCTYPE declares entities. HTML never uses them (the parser does not
 * expand them either); they are the shape of an entity-expansion ("billion laughs") attack, so
 * the sender gets a clear answer instead of a page of unexpanded references.
 */
export async function assertNoEntityDeclarations(path: string, displayName: string): Promise<void> {
  // Entity declarations are ASCII in every encoding a page may use but UTF-16, whose NULs are dropped first.
  const head = (await readStart(path, HEAD_BYTES)).toString('latin1').replace(/\0/g, '');
  if (ENTITY_DECLARATION.test(head)) {
    throw new DomainError(
      'unsupported_format',
      `${displayName} declares entities in its DOCTYPE (<!ENTITY …>), which HTML never uses and which is how entity-expansion attacks look. Remove the declarations and upload it again.`,
    );
  }
}

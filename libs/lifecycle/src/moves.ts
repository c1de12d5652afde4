import type { TRANSITIONS, TransitionName, TransitionSpec } from './transitions';

/*
 * The states and moves of the lifecycle, read off its table's type (TRANSITIONS keeps every
 * move's subject, from and to as the literals written): a move or a state added to the table
 * is added here, and none exists that the table does not name.
 */
type Table = typeof TRANSITIONS;
/** The moves of one subject. */
type MovesOf<S extends TransitionSpec['subject']> = {
  [N in TransitionName]: Table[N]['subject'] extends S ? N : never;
}[TransitionName];
/** The states a subject's moves leave from and arrive in (null, for a conversion: no row yet). */
type StatesOf<N extends TransitionName> = Table[N]['to'] | Table[N]['from'][number];

/** Every way a job moves. */
export type JobMove = MovesOf<'job'>;
/** Every way a conversion moves. */
export type ConversionMove = MovesOf<'conversion'>;
/** The job states the table moves between. */
export type JobState = StatesOf<JobMove>;
/** The conversion states the table moves between, without the row's absence. */
export type ConversionState = Exclude<StatesOf<ConversionMove>, null>;

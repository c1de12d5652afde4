import { JOB_STATUSES, JobConversionEntity, JobEntity, type ConversionStatus, type JobStatus } from '@docconv/db';
import { getMetadataArgsStorage } from 'typeorm';
import type { ConversionState, JobState } from './moves';
import { TRANSITIONS, type MoveContext, type TransitionName, type TransitionSpec } from './transitions';

/** True when A and B are the same union. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** Compile-time: the states the table moves between are exactly the statuses a row can hold. */
const STATES_ARE_STATUSES: [Same<JobState, JobStatus>, Same<ConversionState, ConversionStatus>] = [true, true];

const CONVERSION_STATUSES = ['processing', 'done', 'error', 'refunded'] as const;
/** Compile-time: the list above is every conversion status. */
const CONVERSION_STATUSES_COMPLETE: Same<(typeof CONVERSION_STATUSES)[number], ConversionStatus> = true;

/** Where each subject starts: a job is created pending by its upload; a conversion has no row until a move inserts it. */
const BIRTH = { job: 'pending', conversion: null } as const;
/** States nothing moves out of: the job's ends, and a conversion's file once made. */
const TERMINAL = { job: ['done', 'cancelled'], conversion: ['done'] } as const;
const STATUSES = { job: JOB_STATUSES, conversion: CONVERSION_STATUSES };

const moves = Object.entries(TRANSITIONS) as [TransitionName, TransitionSpec][];
const movesOf = (subject: TransitionSpec['subject']) => moves.filter(([, spec]) => spec.subject === subject);
const SUBJECTS = ['job', 'conversion'] as const;

/** The states reachable from `start` by the subject's moves (a walk of the table). */
function reachable(subject: TransitionSpec['subject'], start: string | null): Set<string | null> {
  const seen = new Set<string | null>([start]);
  const queue: (string | null)[] = [start];
  while (queue.length > 0) {
    const state = queue.shift()!;
    for (const [, spec] of movesOf(subject)) {
      if (spec.from.includes(state) && !seen.has(spec.to)) {
        seen.add(spec.to);
        queue.push(spec.to);
      }
    }
  }
  return seen;
}

/** The database columns of an entity's table, as TypeORM maps them. */
function columnsOf(entity: typeof JobEntity | typeof JobConversionEntity): Set<string> {
  return new Set(
    getMetadataArgsStorage()
      .filterColumns(entity)
      .map((column) => column.options.name ?? column.propertyName),
  );
}

/** A context in which every amount a posting could move is positive, so every posting posts. */
const PAYING: MoveContext = {
  job: { id: 'job-1', apiKeyId: null, costPoints: 7, filename: 'a.pdf' } as JobEntity,
  conversion: { format: 'xlsx_advanced', runId: 'run-1', chargePoints: 3 } as JobConversionEntity,
  params: { apiKeyId: null, points: 5, pages: 'page 2' },
};

describe('TRANSITIONS', () => {
  it('moves between exactly the statuses a job or a conversion can hold', () => {
    expect(STATES_ARE_STATUSES).toEqual([true, true]);
    expect(CONVERSION_STATUSES_COMPLETE).toBe(true);
    for (const subject of SUBJECTS) {
      const named = new Set(movesOf(subject).flatMap(([, spec]) => [...spec.from, spec.to]));
      named.delete(null);
      expect([...named].sort()).toEqual([...STATUSES[subject]].sort());
    }
  });

  it.each(moves)('%s leaves from and arrives in states of its subject', (_, spec) => {
    const statuses: readonly (string | null)[] = STATUSES[spec.subject];
    expect(spec.from.length).toBeGreaterThan(0);
    expect(new Set(spec.from).size).toBe(spec.from.length);
    for (const state of spec.from) {
      if (state === null) expect(spec.subject).toBe('conversion');
      else expect(statuses).toContain(state);
    }
    expect(statuses).toContain(spec.to);
  });

  it.each(SUBJECTS)('reaches every %s status from where it starts', (subject) => {
    const seen = reachable(subject, BIRTH[subject]);
    for (const status of STATUSES[subject]) expect(seen).toContain(status);
  });

  it.each(SUBJECTS)('lets every %s status reach an end: no state traps a job or a run', (subject) => {
    for (const status of STATUSES[subject]) {
      const ends = [...reachable(subject, status)].filter((state) =>
        (TERMINAL[subject] as readonly (string | null)[]).includes(state),
      );
      expect({ status, ends: ends.length > 0 }).toEqual({ status, ends: true });
    }
  });

  it.each(SUBJECTS)('moves no %s out of a terminal state', (subject) => {
    for (const [name, spec] of movesOf(subject)) {
      const out = spec.from.filter((state) => (TERMINAL[subject] as readonly (string | null)[]).includes(state));
      expect({ name, out }).toEqual({ name, out: [] });
    }
  });

  it.each(moves)('%s creates a row exactly when it moves from no row, and only a conversion row', (_, spec) => {
    const creates = spec.from.includes(null);
    expect(spec.insert !== undefined).toBe(creates);
    if (creates) expect(spec.subject).toBe('conversion');
  });

  it.each(movesOf('job').filter(([, spec]) => spec.from.some((state) => state !== spec.to)))(
    '%s changes the job’s status and is heard by its subscribers',
    (_, spec) => expect(spec.event).toBe('status'),
  );

  it.each(moves)('%s sends a queue message exactly when it starts work (a job queued, a run processing)', (_, spec) => {
    const startsWork =
      (spec.subject === 'job' && spec.to === 'queued') || (spec.subject === 'conversion' && spec.to === 'processing');
    expect(spec.send !== undefined).toBe(startsWork);
  });

  it.each(moves.filter(([, spec]) => spec.from.includes('processing') && spec.to !== 'processing'))(
    '%s ends a job or run that was processing and records when it finished',
    (_, spec) => expect(Object.keys(spec.set ?? {})).toContain('finished_at'),
  );

  it.each(moves)('%s writes only columns its subject’s table has', (_, spec) => {
    const columns = columnsOf(spec.subject === 'job' ? JobEntity : JobConversionEntity);
    const written = [...Object.keys(spec.set ?? {}), ...Object.keys(spec.insert ?? {})];
    expect(written.filter((column) => !columns.has(column))).toEqual([]);
  });

  it.each(moves.filter(([, spec]) => spec.posting))(
    '%s posts to the ledger under a key of its own job or run, and a job’s record agrees',
    (_, spec) => {
      const posted = spec.posting!(PAYING);
      expect(posted).not.toBeNull();
      expect(posted!.idempotencyKey).toMatch(/job-1|run-1/);
      expect(posted!.points).toBeGreaterThan(0);
      if (spec.subject === 'job') {
        const recorded = posted!.type === 'spend' ? 'cost_points' : 'refunded_points';
        expect(Object.keys(spec.set ?? {})).toContain(recorded);
      }
    },
  );

  it.each(moves.filter(([, spec]) => spec.posting))('%s posts nothing when there are no points to move', (_, spec) => {
    const free: MoveContext = {
      job: { ...PAYING.job, costPoints: 0 },
      conversion: { ...PAYING.conversion, chargePoints: 0 } as JobConversionEntity,
      params: { ...PAYING.params, points: 0 },
    };
    expect(spec.posting!(free)).toBeNull();
  });
});

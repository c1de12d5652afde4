import { useEffect, useState } from 'preact/hooks';

/**
 * The console's few module-wide values (the session, the language) are each kept in one module,
 * which calls its `listeners` after every change. This hook reads such a value with `read` and
 * re-renders the caller whenever it changes.
 */
export function useFollowed<T>(listeners: Set<() => void>, read: () => T): T {
  const [value, setValue] = useState(read);
  useEffect(() => {
    const listener = () => setValue(read());
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, []);
  return value;
}

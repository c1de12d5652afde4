import { useEffect, useState } from 'preact/hooks';

/**
 * Who is signed in to this tab: the session token (JWT) for account and key pages, and the API
 * key the console uses for jobs, which the API accepts only with a key. Both live in
 * sessionStorage: they last as long as the tab, are never sent as cookies, and are gone when
 * the tab closes.
 */
export interface Session {
  email: string;
  token: string;
  /** Milliseconds since the epoch when the token stops working. */
  expiresAt: number;
  /** The API key used for jobs, when this tab has one. */
  apiKey: string | null;
}

const STORAGE_KEY = 'docconv.session';
const listeners = new Set<() => void>();

function read(): Session | null {
  try {
    const raw = sessionStorage.getItem(STORAGE_KEY);
    if (raw === null) return null;
    const session = JSON.parse(raw) as Session;
    return session.expiresAt > Date.now() ? session : null;
  } catch {
    return null;
  }
}

let current: Session | null = read();

function publish(next: Session | null): void {
  current = next;
  if (next) sessionStorage.setItem(STORAGE_KEY, JSON.stringify(next));
  else sessionStorage.removeItem(STORAGE_KEY);
  for (const listener of listeners) listener();
}

export function getSession(): Session | null {
  return current;
}

export function startSession(email: string, token: string, expiresInSeconds: number): void {
  const expiresIn = expiresInSeconds > 0 ? expiresInSeconds : 3600;
  publish({ email, token, expiresAt: Date.now() + expiresIn * 1000, apiKey: null });
}

/** Makes `key` the API key the console sends for jobs in this tab. */
export function setConsoleKey(key: string): void {
  if (current) publish({ ...current, apiKey: key });
}

export function forgetKey(): void {
  if (current) publish({ ...current, apiKey: null });
}

/** True when the key listed with `prefix` is the one this tab uses for jobs. */
export function isConsoleKey(session: Session | null, prefix: string): boolean {
  return session?.apiKey?.startsWith(prefix) ?? false;
}

export function endSession(): void {
  publish(null);
}

/** The current session, re-rendering the caller whenever it changes. */
export function useSession(): Session | null {
  const [session, setSession] = useState(current);
  useEffect(() => {
    const listener = () => setSession(current);
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, []);
  return session;
}

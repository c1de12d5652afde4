import { useFollowed } from './follow';

/**
 * Who is signed in to this tab: the session's short-lived access token (JWT) that every call of
 * the console sends, jobs included, and the refresh token that renews it once; the console makes
 * no API key of its own. Both live in sessionStorage: they last as long as the tab, are never
 * sent as a cookie, and are gone when the tab closes. While the tab is open the access token is
 * renewed before it expires (see `keepSessionFresh`), each renewal bringing the next refresh token.
 */
export interface Session {
  email: string;
  token: string;
  refreshToken: string;
  /** Milliseconds since the epoch when the token stops working. */
  expiresAt: number;
}

/** What log-in, sign-up and renewal give the tab. */
export interface Issued {
  token: string;
  refreshToken: string;
  expiresInSeconds: number;
}

/** A new access token and refresh token for the current refresh token; rejects with a 401 once the session is over. */
export type Renew = (refreshToken: string) => Promise<Issued>;

/** Ends the session on the server (its tokens stop working everywhere). */
export type LogOut = (token: string) => Promise<void>;

const STORAGE_KEY = 'docconv.session';
/** The token is renewed this long before it expires, or a fifth of its remaining life when that is shorter. */
const RENEW_AHEAD_MS = 5 * 60_000;
/** After a renewal that failed on the way (the network, a busy server), the next try comes this much later. */
const RETRY_MS = 30_000;
/** The soonest a failed renewal is tried again, when the token has already expired. */
const MIN_RETRY_MS = 2_000;
const DEFAULT_LIFETIME_SECONDS = 3600;

const listeners = new Set<() => void>();

function read(): Session | null {
  try {
    const raw = sessionStorage.getItem(STORAGE_KEY);
    if (raw === null) return null;
    const { email, token, refreshToken, expiresAt } = JSON.parse(raw) as Session;
    // An expired access token is kept: its refresh token renews it at once (see `keepSessionFresh`).
    return typeof refreshToken === 'string' ? { email, token, refreshToken, expiresAt } : null;
  } catch {
    return null;
  }
}

let current: Session | null = read();
let renew: Renew | null = null;
let renewing = false;
let logOut: LogOut | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;

function publish(next: Session | null): void {
  current = next;
  if (next) sessionStorage.setItem(STORAGE_KEY, JSON.stringify(next));
  else sessionStorage.removeItem(STORAGE_KEY);
  schedule();
  for (const listener of listeners) listener();
}

function expiresAt(expiresInSeconds: number): number {
  return Date.now() + (expiresInSeconds > 0 ? expiresInSeconds : DEFAULT_LIFETIME_SECONDS) * 1000;
}

/** Sets the timer that renews the current token ahead of its expiry (`delayMs` overrides when). */
function schedule(delayMs?: number): void {
  clearTimeout(timer);
  timer = undefined;
  if (!current || !renew) return;
  const left = current.expiresAt - Date.now();
  const wait = delayMs ?? left - Math.min(RENEW_AHEAD_MS, left / 5);
  timer = setTimeout(() => void renewNow(), Math.max(0, wait));
}

/**
 * Exchanges the refresh token for a new pair, one exchange at a time: a refresh token works once,
 * and sending it twice would end the session.
 */
async function renewNow(): Promise<void> {
  const session = current;
  if (!session || !renew || renewing) return;
  renewing = true;
  try {
    const next = await renew(session.refreshToken);
    // Signed out (or in as someone else) meanwhile: that session is the one to keep.
    if (current?.token !== session.token) return;
    publish({ ...session, ...issued(next) });
  } catch (error) {
    if (current?.token !== session.token) return;
    if ((error as { status?: unknown }).status === 401) publish(null);
    else schedule(Math.min(RETRY_MS, Math.max(MIN_RETRY_MS, (session.expiresAt - Date.now()) / 2)));
  } finally {
    renewing = false;
  }
}

/** Whether the tab's access token has expired and waits for its renewal (after sleep or a reload). */
export function awaitingRenewal(session: Session): boolean {
  return session.expiresAt <= Date.now();
}

/**
 * Keeps this tab's session alive while the tab is open: the token is exchanged for a new one
 * before it expires, and at once when the tab comes back after its timer could not run (a
 * sleeping laptop) or is reloaded with an expired token. A refused renewal (the session is over)
 * signs the tab out.
 */
export function keepSessionFresh(renewWith: Renew, logOutWith: LogOut): void {
  renew = renewWith;
  logOut = logOutWith;
  schedule();
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') schedule();
  });
}

export function getSession(): Session | null {
  return current;
}

function issued(next: Issued): Omit<Session, 'email'> {
  return { token: next.token, refreshToken: next.refreshToken, expiresAt: expiresAt(next.expiresInSeconds) };
}

export function startSession(email: string, next: Issued): void {
  publish({ email, ...issued(next) });
}

/**
 * Logs the tab out: the session ends on the server too, so its tokens stop working wherever they
 * are. The tab forgets them at once, whether or not the server could be told.
 */
export function endSession(): void {
  const token = current?.token;
  publish(null);
  if (token && logOut) logOut(token).catch(() => undefined);
}

/** Forgets the tab's session without telling the server (it has already ended there). */
export function forgetSession(): void {
  publish(null);
}

/** The current session, re-rendering the caller whenever it changes. */
export function useSession(): Session | null {
  return useFollowed(listeners, () => current);
}

import { useEffect, useState } from 'preact/hooks';

/** The console's pages, addressed by the URL fragment so the API serves one static file. */
export type Route =
  | { page: 'login' }
  | { page: 'upload' }
  | { page: 'jobs' }
  | { page: 'job'; jobId: string }
  | { page: 'keys' }
  | { page: 'sessions' }
  | { page: 'account' };

export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, '');
  const job = /^\/jobs\/([0-9a-f-]{36})$/i.exec(path);
  if (job) return { page: 'job', jobId: job[1] };
  switch (path) {
    case '/login':
      return { page: 'login' };
    case '/jobs':
      return { page: 'jobs' };
    case '/keys':
      return { page: 'keys' };
    case '/sessions':
      return { page: 'sessions' };
    case '/account':
      return { page: 'account' };
    default:
      return { page: 'upload' };
  }
}

export function href(route: Route): string {
  return route.page === 'job' ? `#/jobs/${route.jobId}` : `#/${route.page}`;
}

export function navigate(route: Route): void {
  window.location.hash = href(route);
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  useEffect(() => {
    const listener = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener('hashchange', listener);
    return () => window.removeEventListener('hashchange', listener);
  }, []);
  return route;
}

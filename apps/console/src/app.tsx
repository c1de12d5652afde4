import { useEffect, useRef } from 'preact/hooks';
import { sessionClient } from './api';
import { LANGUAGES, setLanguage, t, useLanguage, type Language } from './i18n';
import { AccountPage } from './pages/account';
import { JobPage } from './pages/job';
import { JobsPage } from './pages/jobs';
import { KeysPage } from './pages/keys';
import { LoginPage } from './pages/login';
import { SessionsPage } from './pages/sessions';
import { UploadPage } from './pages/upload';
import { href, useRoute, type Route } from './router';
import { awaitingRenewal, endSession, useSession, type Session } from './session';

const NAV: {
  page: Exclude<Route['page'], 'login' | 'job'>;
  label: 'nav.upload' | 'nav.jobs' | 'nav.keys' | 'nav.sessions' | 'nav.account';
}[] = [
  { page: 'upload', label: 'nav.upload' },
  { page: 'jobs', label: 'nav.jobs' },
  { page: 'keys', label: 'nav.keys' },
  { page: 'sessions', label: 'nav.sessions' },
  { page: 'account', label: 'nav.account' },
];

export function App() {
  const language = useLanguage();
  const session = useSession();
  const route = useRoute();
  const effective: Route = session ? (route.page === 'login' ? { page: 'upload' } : route) : { page: 'login' };
  const heading = useRef<HTMLHeadingElement>(null);
  const routeKey = effective.page === 'job' ? `job:${effective.jobId}` : effective.page;

  useEffect(() => {
    document.title = `${t(`title.${effective.page}`)} · docconv`;
  }, [routeKey, language]);
  // After navigation, focus moves to the page's heading so keyboard and screen-reader users start there.
  const first = useRef(true);
  useEffect(() => {
    if (first.current) first.current = false;
    else heading.current?.focus();
  }, [routeKey]);

  return (
    <>
      <a class="skip" href="#main">
        {t('nav.skip')}
      </a>
      <header class="top">
        <a class="brand" href={href({ page: session ? 'upload' : 'login' })}>
          docconv
        </a>
        {session && (
          <nav aria-label={t('nav.label')}>
            <ul>
              {NAV.map((item) => (
                <li key={item.page}>
                  <a
                    href={href({ page: item.page })}
                    aria-current={
                      effective.page === item.page || (item.page === 'jobs' && effective.page === 'job')
                        ? 'page'
                        : undefined
                    }
                  >
                    {t(item.label)}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        )}
        <div class="top-tools">
          <label class="visually-hidden" for="language">
            {t('nav.language')}
          </label>
          <select id="language" value={language} onChange={(e) => setLanguage(e.currentTarget.value as Language)}>
            {LANGUAGES.map((l) => (
              <option key={l.code} value={l.code} lang={l.code}>
                {l.name}
              </option>
            ))}
          </select>
          {session && (
            <button type="button" class="secondary" onClick={endSession} title={session.email}>
              {t('nav.logout')}
            </button>
          )}
        </div>
      </header>
      <main id="main">
        <h1 ref={heading} tabIndex={-1}>
          {t(`title.${effective.page}`)}
        </h1>
        <Page route={effective} session={session} />
      </main>
    </>
  );
}

function Page({ route, session }: { route: Route; session: Session | null }) {
  if (!session || route.page === 'login') return <LoginPage />;
  // The token expired while the tab slept or was closed: its renewal is on the way.
  if (awaitingRenewal(session)) return <p>{t('common.loading')}</p>;
  if (route.page === 'keys') return <KeysPage session={session} />;
  if (route.page === 'sessions') return <SessionsPage session={session} />;
  if (route.page === 'account') return <AccountPage session={session} />;
  const client = sessionClient(session);
  if (route.page === 'upload') return <UploadPage client={client} />;
  if (route.page === 'jobs') return <JobsPage client={client} />;
  return <JobPage key={route.jobId} client={client} jobId={route.jobId} />;
}

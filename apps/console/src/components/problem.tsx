import { DocconvError } from '@docconv/client';
import { t } from '../i18n';
import { endSession } from '../session';

/**
 * An error as a person can act on it: the problem's title and detail from the API (they say
 * what to do next), field errors listed, and a way back in when the session has expired.
 */
export function Problem({ error }: { error: unknown }) {
  if (error === undefined || error === null) return null;
  if (error instanceof DocconvError) {
    return (
      <div class="problem" role="alert">
        <strong>{error.status === 0 ? t('error.network') : error.title}</strong>
        <p>{error.detail}</p>
        {error.errors.length > 0 && (
          <ul>
            {error.errors.map((e) => (
              <li key={e.field}>
                <code>{e.field}</code>: {e.message}
              </li>
            ))}
          </ul>
        )}
        {(error.status === 401 || error.code === 'recent_login_required') && (
          <button type="button" onClick={endSession}>
            {t('error.loginAgain')}
          </button>
        )}
      </div>
    );
  }
  return (
    <div class="problem" role="alert">
      <strong>{t('error.unexpected')}</strong>
      <p>{error instanceof Error ? error.message : JSON.stringify(error)}</p>
    </div>
  );
}

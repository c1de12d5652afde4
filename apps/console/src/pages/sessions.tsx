import { useState } from 'preact/hooks';
import { changePassword, endSession as endServerSession, listSessions } from '@docconv/client';
import { accountClient } from '../api';
import { Problem } from '../components/problem';
import { dateTime } from '../format';
import { t } from '../i18n';
import { forgetSession, type Session } from '../session';
import { useAsync } from '../use-async';
import { DataTable } from '../components/data-table';

/**
 * The person's sessions (each log-in, this tab's included) with a way to end any of them, and the
 * password change, which ends every session but this one.
 */
export function SessionsPage({ session }: { session: Session }) {
  const client = accountClient(session);
  const sessions = useAsync(() => listSessions(client, session.token), [client]);
  const [error, setError] = useState<unknown>();

  const end = async (sessionId: string, current: boolean) => {
    setError(undefined);
    try {
      await endServerSession(client, session.token, sessionId);
      if (current) forgetSession();
      else sessions.reload();
    } catch (e) {
      setError(e);
    }
  };

  return (
    <div>
      <p class="lead">{t('sessions.explain')}</p>
      <h2>{t('sessions.yours')}</h2>
      <Problem error={sessions.error ?? error} />
      {sessions.data && (
        <DataTable
          label={t('sessions.yours')}
          columns={[
            t('sessions.device'),
            t('sessions.address'),
            t('sessions.started'),
            t('sessions.lastUsed'),
            { hidden: t('keys.actions') },
          ]}
          testId="sessions"
        >
          {sessions.data.map((s) => (
            <tr key={s.id}>
              <td>
                {s.user_agent || t('sessions.unknownDevice')}{' '}
                {s.current && <span class="badge badge-done">{t('sessions.thisTab')}</span>}
              </td>
              <td>{s.ip_address || '—'}</td>
              <td>{dateTime(s.created_at)}</td>
              <td>{dateTime(s.last_used_at)}</td>
              <td>
                <button
                  type="button"
                  class={s.current ? 'secondary' : 'danger'}
                  aria-label={t('sessions.endNamed', { name: s.user_agent || s.id })}
                  onClick={() => end(s.id, s.current)}
                >
                  {s.current ? t('nav.logout') : t('sessions.end')}
                </button>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <PasswordForm session={session} onChanged={sessions.reload} />
    </div>
  );
}

function PasswordForm({ session, onChanged }: { session: Session; onChanged: () => void }) {
  const client = accountClient(session);
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const [error, setError] = useState<unknown>();

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setDone(false);
    setError(undefined);
    try {
      await changePassword(client, session.token, { currentPassword, newPassword });
      setCurrentPassword('');
      setNewPassword('');
      setDone(true);
      onChanged();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card" onSubmit={submit}>
      <h2>{t('password.title')}</h2>
      <p class="hint">{t('password.explain')}</p>
      <label for="current-password">{t('password.current')}</label>
      <input
        id="current-password"
        type="password"
        required
        autoComplete="current-password"
        value={currentPassword}
        onInput={(e) => setCurrentPassword(e.currentTarget.value)}
      />
      <label for="new-password">{t('password.new')}</label>
      <input
        id="new-password"
        type="password"
        required
        minLength={8}
        autoComplete="new-password"
        value={newPassword}
        onInput={(e) => setNewPassword(e.currentTarget.value)}
        aria-describedby="new-password-hint"
      />
      <p id="new-password-hint" class="hint">
        {t('login.passwordHint')}
      </p>
      <Problem error={error} />
      {done && (
        <p role="status" class="notice positive">
          {t('password.changed')}
        </p>
      )}
      <button type="submit" disabled={busy}>
        {busy ? t('common.working') : t('password.button')}
      </button>
    </form>
  );
}

import { useState } from 'preact/hooks';
import { login, signup } from '@docconv/client';
import { issuedOf, publicClient } from '../api';
import { Problem } from '../components/problem';
import { t } from '../i18n';
import { navigate } from '../router';
import { startSession } from '../session';

type Mode = 'login' | 'signup';

export function LoginPage() {
  const [mode, setMode] = useState<Mode>('login');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const credentials = { email: email.trim(), password };
      const session =
        mode === 'signup' ? await signup(publicClient, credentials) : await login(publicClient, credentials);
      startSession(credentials.email, issuedOf(session));
      navigate({ page: 'upload' });
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="login">
      <p class="lead">{t('login.pitch')}</p>
      <div class="tabs" role="group" aria-label={t('login.choose')}>
        <button type="button" aria-pressed={mode === 'login'} onClick={() => setMode('login')}>
          {t('login.login')}
        </button>
        <button
          type="button"
          data-testid="mode-signup"
          aria-pressed={mode === 'signup'}
          onClick={() => setMode('signup')}
        >
          {t('login.signup')}
        </button>
      </div>
      <form class="card" onSubmit={submit}>
        <label for="email">{t('login.email')}</label>
        <input
          id="email"
          type="email"
          required
          autoComplete="email"
          value={email}
          onInput={(e) => setEmail(e.currentTarget.value)}
        />
        <label for="password">{t('login.password')}</label>
        <input
          id="password"
          type="password"
          required
          minLength={mode === 'signup' ? 8 : undefined}
          autoComplete={mode === 'signup' ? 'new-password' : 'current-password'}
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
          aria-describedby={mode === 'signup' ? 'password-hint' : undefined}
        />
        {mode === 'signup' && (
          <p id="password-hint" class="hint">
            {t('login.passwordHint')}
          </p>
        )}
        <Problem error={error} />
        <button type="submit" disabled={busy}>
          {busy ? t('common.working') : mode === 'signup' ? t('login.signupButton') : t('login.loginButton')}
        </button>
      </form>
    </div>
  );
}

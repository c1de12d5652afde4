import { render } from 'preact';
import { logOutSession, renewSession } from './api';
import { App } from './app';
import { keepSessionFresh } from './session';
import './styles.css';

keepSessionFresh(renewSession, logOutSession);
render(<App />, document.getElementById('app')!);

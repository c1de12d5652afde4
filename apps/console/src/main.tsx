import { render } from 'preact';
import { renewSession } from './api';
import { App } from './app';
import { keepSessionFresh } from './session';
import './styles.css';

keepSessionFresh(renewSession);
render(<App />, document.getElementById('app')!);

import { render } from 'preact';
import { App } from './App';
import './styles.css';

/** The console's entry: renders the app into index.html's #app. */
render(<App />, document.getElementById('app')!);

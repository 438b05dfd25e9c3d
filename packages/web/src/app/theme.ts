import { byId } from './util/dom';

/** Where the theme chosen with the toggle is remembered (this browser, every app). */
export const THEME_KEY = 'adk-web-theme';

/** A theme the user chose; without a choice the page follows the system's colour scheme. */
export type Theme = 'light' | 'dark';

function storedTheme(): Theme | undefined {
  try {
    const value = localStorage.getItem(THEME_KEY);
    return value === 'light' || value === 'dark' ? value : undefined;
  } catch {
    // Storage can be refused (a privacy setting): the toggle still works for this page.
    return undefined;
  }
}

const systemDark = () => matchMedia('(prefers-color-scheme: dark)').matches;

/** The choice made on this page (kept even when storage refuses it). */
let chosen: Theme | undefined;

/** The theme showing now: the chosen one, else the system's. */
export function currentTheme(): Theme {
  return chosen ?? (systemDark() ? 'dark' : 'light');
}

function apply(): void {
  // Without `data-theme` the stylesheet's `color-scheme: light dark` follows the system.
  if (chosen) document.documentElement.dataset.theme = chosen;
  else delete document.documentElement.dataset.theme;
  byId('theme-toggle').setAttribute('aria-pressed', String(currentTheme() === 'dark'));
}

/**
 * Wire the theme toggle: it switches between light and dark and remembers the choice; until
 * then the page follows `prefers-color-scheme`, also when the system changes it.
 */
export function setUpTheme(): void {
  chosen = storedTheme();
  apply();
  byId('theme-toggle').addEventListener('click', () => {
    chosen = currentTheme() === 'dark' ? 'light' : 'dark';
    try {
      localStorage.setItem(THEME_KEY, chosen);
    } catch {
      // Not remembered, still applied.
    }
    apply();
  });
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', apply);
}

import { describe, expect, it } from 'vitest';

import { TemplateVariableError } from '../errors/template-variable-error';
import { renderTemplate } from './template';

const state = {
  name: 'Ada',
  'app:brand': 'ACME',
  'user:lang': 'fr',
  'temp:step': 2,
  prefs: { tea: true },
};

describe('renderTemplate', () => {
  it('substitutes state, app:, user: and temp: variables', async () => {
    expect(
      await renderTemplate('Hi {name} from {app:brand} ({user:lang}), step {temp:step}.', {
        state,
      }),
    ).toBe('Hi Ada from ACME (fr), step 2.');
  });

  it('renders objects as JSON and trims the key', async () => {
    expect(await renderTemplate('Prefs: { prefs }', { state })).toBe('Prefs: {"tea":true}');
  });

  it('renders a missing optional variable as an empty string', async () => {
    expect(await renderTemplate('City: {city?}.', { state })).toBe('City: .');
  });

  it('throws TemplateVariableError for a missing required variable', async () => {
    const error = await renderTemplate('City: {city}', { state }).catch((e: unknown) => e);
    expect(TemplateVariableError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ variable: 'city', message: expect.stringContaining('{city?}') });
  });

  it('leaves invalid keys untouched (JSON, spaces, unknown prefixes, empty braces)', async () => {
    const text = 'Reply as {"answer": 1} or { two words } or {other:x} or {} or {a:b:c}.';
    expect(await renderTemplate(text, { state })).toBe(text);
  });

  it('inserts artifacts, optional or required', async () => {
    const loadArtifact = async (name: string) =>
      name === 'notes.md'
        ? { text: '# Notes' }
        : name === 'data.json'
          ? { inlineData: { mimeType: 'x', data: 'AA' } }
          : undefined;
    expect(
      await renderTemplate('{artifact.notes.md}|{artifact.missing.txt?}', { state, loadArtifact }),
    ).toBe('# Notes|');
    expect(await renderTemplate('{artifact.data.json}', { state, loadArtifact })).toBe(
      '{"inlineData":{"mimeType":"x","data":"AA"}}',
    );
    await expect(renderTemplate('{artifact.missing.txt}', { state, loadArtifact })).rejects.toThrow(
      /not found/,
    );
    await expect(renderTemplate('{artifact.notes.md}', { state })).rejects.toThrow(
      /artifact service/,
    );
  });

  it('reads through a ReadonlyState', async () => {
    const view = {
      get: (key: string) => (key === 'x' ? 'X' : undefined),
      has: () => true,
      toRecord: () => ({}),
    };
    expect(await renderTemplate('{x}', { state: view })).toBe('X');
  });

  describe('braces as the Python ADK reads them ({+[^{}]*}+)', () => {
    it('renders doubled and tripled braces like single ones, consuming every brace', async () => {
      expect(await renderTemplate('Hi {{name}}!', { state })).toBe('Hi Ada!');
      expect(await renderTemplate('Hi {{{name}}}!', { state })).toBe('Hi Ada!');
      expect(await renderTemplate('Hi {{ name }} and {{user:lang}}', { state })).toBe(
        'Hi Ada and fr',
      );
    });

    it('consumes unbalanced runs of braces around a valid key', async () => {
      expect(await renderTemplate('a {{name} b {name}}} c', { state })).toBe('a Ada b Ada c');
    });

    it('treats a doubled optional or missing variable like a single one', async () => {
      expect(await renderTemplate('[{{city?}}]', { state })).toBe('[]');
      const error = await renderTemplate('{{city}}', { state }).catch((e: unknown) => e);
      expect(TemplateVariableError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ variable: 'city' });
    });

    it('leaves an invalid key untouched with all its braces', async () => {
      const text = 'Keep {{ two words }}, {{{}}}, {{1st}} and {{other:x}}.';
      expect(await renderTemplate(text, { state })).toBe(text);
    });

    it('does not treat a space before ? as part of an optional key', async () => {
      expect(await renderTemplate('{{name ?}}', { state })).toBe('{{name ?}}');
    });

    it('lets a valid key take the closing brace that follows it', async () => {
      expect(await renderTemplate('{"who": {name}}', { state })).toBe('{"who": Ada');
      expect(await renderTemplate('{"who": {name}, "n": 1}', { state })).toBe(
        '{"who": Ada, "n": 1}',
      );
    });

    it('accepts Unicode identifiers as Python does, but no leading digit', async () => {
      expect(await renderTemplate('{prénom} {_x1}', { state: { prénom: 'Zoé', _x1: 1 } })).toBe(
        'Zoé 1',
      );
      expect(await renderTemplate('{1x}', { state: { '1x': 'no' } })).toBe('{1x}');
    });

    it('reads doubled braces around an artifact', async () => {
      const loadArtifact = async () => ({ text: '# Notes' });
      expect(await renderTemplate('{{artifact.notes.md}}', { state, loadArtifact })).toBe(
        '# Notes',
      );
    });
  });
});

import { FunctionTool } from '@adk/core';
import { z } from 'zod';

/** A file name from a title: `Space news` → `space-news.md`. */
export function reportFilename(title: string): string {
  const slug = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return `${slug || 'report'}.md`;
}

/** `write_report`: save a Markdown report as a session artifact (a new version each time). */
export const writeReportTool = new FunctionTool({
  name: 'write_report',
  description: 'Write a short Markdown report and save it as an artifact of the session.',
  parameters: z.object({
    title: z.string().min(1).describe('Title of the report'),
    body: z.string().min(1).describe('Text of the report'),
  }),
  execute: async ({ title, body }, context) => {
    const filename = reportFilename(title);
    const version = await context.saveArtifact(filename, { text: `# ${title}\n\n${body}\n` });
    return { filename, version, status: 'saved' };
  },
});

/**
 * `publish_report`: publish a saved report. A human must approve every call first
 * (`requireConfirmation`); the run pauses until the approval arrives.
 */
export const publishReportTool = new FunctionTool({
  name: 'publish_report',
  description: 'Publish a saved report to the team. Needs human approval.',
  parameters: z.object({ filename: z.string().min(1).describe('File name of the saved report') }),
  requireConfirmation: true,
  execute: async ({ filename }, context) => {
    const artifacts = await context.listArtifacts();
    const target = artifacts.includes(filename)
      ? filename
      : artifacts.find((name) => name.endsWith('.md'));
    if (!target)
      return { status: 'nothing to publish', reason: 'no report saved in this session yet' };
    context.state.set('published_reports', [
      ...(context.state.get<string[]>('published_reports') ?? []),
      target,
    ]);
    return { status: 'published', filename: target };
  },
});

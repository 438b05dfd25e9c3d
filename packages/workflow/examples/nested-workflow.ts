/** A nested workflow: a workflow is a node of another, value in and value out. */
import { START, Workflow } from '@adk/workflow';
import { z } from 'zod';

import { runTurn } from './run-turn';

const clean = (text: string) => text.trim().toLowerCase();
const count = (text: string) => text.split(/\s+/).length;
const stats = new Workflow({
  name: 'stats',
  inputSchema: z.string(),
  outputSchema: z.number(),
  edges: [[START, clean, count]],
});
const report = (words: number) => `${words} words`;

const pipeline = new Workflow({ name: 'pipeline', edges: [[START, stats, report]] });

await runTurn(pipeline, '  Graph workflows nest like any node  ');

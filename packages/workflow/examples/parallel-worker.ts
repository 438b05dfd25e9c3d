/** A parallel worker: one node mapped over a list, at most 3 items at a time. */
import { functionNode, ParallelWorker, START, Workflow } from '@adk/workflow';

import { runTurn } from './run-turn';

const split = (text: string) => text.split(',').map((word) => word.trim());
const measure = functionNode({
  name: 'measure',
  run: async (word: string) => {
    await new Promise((resolve) => setTimeout(resolve, 50));
    return { word, length: word.length };
  },
});
const measureAll = new ParallelWorker({ name: 'measure_all', node: measure, maxConcurrency: 3 });

const words = new Workflow({ name: 'words', edges: [[START, split, measureAll]] });

await runTurn(words, 'graph, node, edge, route, join, loop');

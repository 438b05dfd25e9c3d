import { describe, expect, it } from 'vitest';

import { splitPerfScript } from './perf-split';

const MAP = '(/tmp/perf-100.map)';

/** One sample of `perf script -F tid,ip,sym,dso`: its thread, then its frames innermost first. */
function sample(tid: number, frames: string[]): string {
  return [`${tid} `, ...frames.map((frame, at) => `\t    ${at.toString(16)} ${frame}`)].join('\n');
}

const socketWrite = [
  '_raw_spin_unlock_irqrestore ([kernel.kallsyms])',
  `JS:*clearBuffer node:internal/streams/writable:744:21 ${MAP}`,
  `JS:*Socket._writeGeneric node:net:927:42 ${MAP}`,
];

describe('splitPerfScript', () => {
  it('charges a socket write to the code that made it, the driver or HTTP', () => {
    const script = [
      sample(100, [...socketWrite, `JS:*submit file:///x/node_modules/pg/lib/query.js:1:1 ${MAP}`]),
      sample(100, [...socketWrite, `JS:*submit file:///x/node_modules/pg/lib/query.js:1:1 ${MAP}`]),
      sample(100, [...socketWrite, `JS:^connectionCorkNT node:_http_outgoing:1:1 ${MAP}`]),
      // A write with nothing further out: HTTP's, the usual caller.
      sample(100, socketWrite),
      sample(101, ['Builtins_Something (/usr/bin/node)']),
    ].join('\n\n');
    expect(splitPerfScript(script, 100)).toEqual({
      'pg driver': 0.4,
      'http and sse': 0.4,
      'V8 threads (compiler, GC helpers)': 0.2,
    });
  });

  it('charges a sample to its innermost known frame', () => {
    const script = [
      sample(100, [
        `JS:*valueBytes file:///x/packages/core/src/events/approximate-bytes.ts:1:1 ${MAP}`,
        `JS:*#append file:///x/packages/session-sql/src/sql-session-service.ts:1:1 ${MAP}`,
      ]),
      sample(100, ['v8::internal::Heap::Scavenge (/usr/bin/node)']),
    ].join('\n\n');
    expect(splitPerfScript(script, 100)).toEqual({
      'runner and agent (core)': 0.5,
      'garbage collector': 0.5,
    });
  });
});

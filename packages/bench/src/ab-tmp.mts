// In-process A/B: the same turn loop against two source trees of @adk/core, interleaved batches.
import { z } from 'zod';
const trees: Record<string, string> = { base: process.env.A ?? '/work/wt/base', main: process.env.B ?? '/work/main' };
type Core = typeof import('/work/main/packages/core/src/index.ts');
async function harness(core: Core) {
  const { FunctionTool, InMemorySessionService, LlmAgent, Runner } = core;
  class M { readonly name = 'scripted'; async *generate(request: any) {
    const last = request.contents[request.contents.length - 1];
    if (last?.parts?.some((p: any) => p.functionResponse)) yield { content: { role: 'model', parts: [{ text: 'Sunny.' }] }, turnComplete: true };
    else yield { content: { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] }, turnComplete: true };
  } }
  const tool = new FunctionTool({ name: 'get_weather', description: 'w', parameters: z.object({ city: z.string() }), execute: ({ city }: { city: string }) => ({ city, forecast: 'sunny' }) });
  const agent = new LlmAgent({ name: 'weather', model: new M() as any, instruction: 'You are a weather assistant. Use the get_weather tool to answer.', tools: [tool] });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: 'app', agent, sessionService });
  let n = 0;
  return async (turns: number) => {
    const start = process.cpuUsage();
    const t0 = performance.now();
    const drain = async (sessionId: string) => {
      for await (const _ of runner.run({ userId: 'u', sessionId, newMessage: { role: 'user', parts: [{ text: 'Weather in Paris?' }] } })) { /* drain */ }
    };
    if (process.env.MODE === 'concurrent') {
      const ids = Array.from({ length: turns / 5 }, () => `s${n++}`);
      for (const id of ids) await sessionService.createSession({ appName: 'app', userId: 'u', sessionId: id });
      await Promise.all(ids.map(async (id) => { for (let t = 0; t < 5; t++) await drain(id); }));
      for (const id of ids) await sessionService.deleteSession({ appName: 'app', userId: 'u', sessionId: id });
    } else {
      for (let i = 0; i < turns; i++) {
        const sessionId = `s${n++}`;
        await sessionService.createSession({ appName: 'app', userId: 'u', sessionId });
        await drain(sessionId);
      }
    }
    const cpu = process.cpuUsage(start);
    return { cpuUs: (cpu.user + cpu.system) / turns, wallUs: ((performance.now() - t0) * 1000) / turns };
  };
}
const runs: Record<string, (t: number) => Promise<{ cpuUs: number; wallUs: number }>> = {};
for (const [k, dir] of Object.entries(trees)) runs[k] = await harness(await import(`${dir}/packages/core/src/index.ts`));
const results: Record<string, number[]> = { base: [], main: [] };
const batch = Number(process.env.BATCH ?? 3000);
for (let round = 0; round < Number(process.env.ROUNDS ?? 12); round++) {
  for (const k of round % 2 ? ['main', 'base'] : ['base', 'main']) {
    const r = await runs[k]!(batch);
    if (round >= 2) results[k]!.push(r.cpuUs);
  }
}
const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
console.log(`cpu µs/turn median: base ${med(results.base!).toFixed(1)} main ${med(results.main!).toFixed(1)} ratio ${(med(results.main!) / med(results.base!)).toFixed(3)}`);
console.log('base', results.base!.map((x) => x.toFixed(0)).join(' '));
console.log('main', results.main!.map((x) => x.toFixed(0)).join(' '));

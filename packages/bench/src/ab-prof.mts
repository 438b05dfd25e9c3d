import { z } from 'zod';
const dir = process.env.T!;
const core = await import(`${dir}/packages/core/src/index.ts`);
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
const t = process.cpuUsage();
const drain = async (sessionId: string) => { for await (const _ of runner.run({ userId: 'u', sessionId, newMessage: { role: 'user', parts: [{ text: 'Weather in Paris?' }] } })) {} };
let n = 0;
for (let round = 0; round < 12; round++) {
  const ids = Array.from({ length: 1000 }, () => `s${n++}`);
  for (const id of ids) await sessionService.createSession({ appName: 'app', userId: 'u', sessionId: id });
  await Promise.all(ids.map(async (id) => { for (let k = 0; k < 5; k++) await drain(id); }));
  for (const id of ids) await sessionService.deleteSession({ appName: 'app', userId: 'u', sessionId: id });
}
const c = process.cpuUsage(t); console.log(dir, ((c.user + c.system) / 60000).toFixed(1), 'µs/turn');

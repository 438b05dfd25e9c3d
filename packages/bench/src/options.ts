import type { FrameworkId } from './frameworks/framework';
import { FRAMEWORKS } from './frameworks/load';
import type { ScenarioName } from './scenarios';
import { SCENARIOS } from './scenarios';

/** Command-line options of `pnpm bench`. */
export interface BenchOptions {
  /** Fewer iterations and runs (`--quick`). */
  quick: boolean;
  /** Worker runs per framework; the table quotes their medians (`--runs=N`). */
  runs: number;
  /** Scenarios to run (`--only=turnLatency,concurrent`); all by default. */
  scenarios: ScenarioName[];
  /** Frameworks to run (`--frameworks=adk-ts`); both by default. */
  frameworks: FrameworkId[];
  /** Run the SQL session store benchmark when it is available (`--no-sql` skips it). */
  sql: boolean;
  /** Measure the stable prompt prefix of a 20-turn session (`--no-prefix` skips it). */
  prefix: boolean;
  /** Run the workflow per-node overhead benchmark (`--no-workflow` skips it). */
  workflow: boolean;
  /** Run the MCP tool-call benchmark (`--no-mcp` skips it). */
  mcp: boolean;
}

const USAGE = `pnpm bench [-- --quick] [--runs=N] [--only=${Object.keys(SCENARIOS).join(',')}] [--frameworks=adk-ts,google-adk,floor,contract-floor] [--no-sql] [--no-prefix] [--no-workflow] [--no-mcp]`;

/** Parse `argv` (without the node and script paths). */
export function parseOptions(argv: readonly string[]): BenchOptions {
  const quick = argv.includes('--quick');
  const options: BenchOptions = {
    quick,
    runs: quick ? 1 : 5,
    scenarios: Object.keys(SCENARIOS) as ScenarioName[],
    frameworks: [...FRAMEWORKS],
    sql: true,
    prefix: true,
    workflow: true,
    mcp: true,
  };
  for (const arg of argv) {
    const [key, value = ''] = arg.split('=', 2);
    switch (key) {
      case '--':
      case '--quick':
        break;
      case '--no-workflow':
        options.workflow = false;
        break;
      case '--no-sql':
        options.sql = false;
        break;
      case '--no-prefix':
        options.prefix = false;
        break;
      case '--no-mcp':
        options.mcp = false;
        break;
      case '--runs':
        options.runs = Number.parseInt(value, 10);
        if (!(options.runs >= 1)) throw new Error(`--runs must be a positive integer\n${USAGE}`);
        break;
      case '--only':
        options.scenarios = value.split(',').map((name) => {
          if (!(name in SCENARIOS)) throw new Error(`unknown scenario ${name}\n${USAGE}`);
          return name as ScenarioName;
        });
        break;
      case '--frameworks':
        options.frameworks = value.split(',').map((name) => {
          if (!FRAMEWORKS.includes(name as FrameworkId))
            throw new Error(`unknown framework ${name}\n${USAGE}`);
          return name as FrameworkId;
        });
        break;
      default:
        throw new Error(`unknown option ${arg}\n${USAGE}`);
    }
  }
  return options;
}

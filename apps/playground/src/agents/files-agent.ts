import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

import { LlmAgent } from '@adk/core';
import type { Model } from '@adk/core';
import { McpToolset } from '@adk/mcp';

// The registry's filesystem server, run with this Node (its package has no `main`).
const filesystemServer = join(
  dirname(
    createRequire(import.meta.url).resolve('@modelcontextprotocol/server-filesystem/package.json'),
  ),
  'dist/index.js',
);

/** Create the sandbox folder with a first file to look at. */
function prepareSandbox(sandboxDir: string): void {
  mkdirSync(sandboxDir, { recursive: true });
  const welcome = join(sandboxDir, 'welcome.txt');
  if (!existsSync(welcome)) {
    writeFileSync(
      welcome,
      "This folder is the files agent's sandbox: the MCP filesystem server may touch nothing outside it.\n",
    );
  }
}

/**
 * Shows MCP: the tools of `@modelcontextprotocol/server-filesystem` (started over stdio, allowed
 * to touch `sandboxDir` only), used through `McpToolset`. Writing a file asks a human first.
 */
export function createFilesAgent(model: string | Model, sandboxDir: string): LlmAgent {
  prepareSandbox(sandboxDir);
  const files = new McpToolset({
    name: 'filesystem',
    connection: {
      transport: 'stdio',
      command: process.execPath,
      args: [filesystemServer, sandboxDir],
      // Relative paths the model gives resolve inside the sandbox.
      cwd: sandboxDir,
    },
    toolFilter: ['list_directory', 'read_text_file', 'write_file'],
    requireConfirmation: ['write_file'],
  });
  return new LlmAgent({
    name: 'files',
    description: 'Lists, reads and writes the files of a sandbox folder through an MCP server',
    model,
    instruction: `You manage the files of the folder ${sandboxDir} with the filesystem tools. Use paths relative to it (\`.\` is the folder itself). Writing a file needs a human's approval.`,
    tools: [files],
  });
}

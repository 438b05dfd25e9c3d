/**
 * The part of an `@adk/jobs` store the job routes use (any `JobStore` fits; the server does not
 * depend on `@adk/jobs`).
 */
export interface ServerJobStore {
  enqueue(request: {
    appName: string;
    userId: string;
    sessionId?: string;
    message: { role?: string; parts: unknown[] };
    queue?: string;
    priority?: number;
    runIn?: number;
  }): Promise<{ job: ServerJob; created: boolean }>;
  get(id: string): Promise<ServerJob | undefined>;
  list(request?: { appName?: string; state?: string; limit?: number }): Promise<ServerJob[]>;
  cancel(id: string): Promise<ServerJob | undefined>;
}

/** The fields of a job the routes read (the whole job is returned). */
export interface ServerJob {
  readonly id: string;
  readonly appName: string;
  readonly userId: string;
  readonly state: string;
}

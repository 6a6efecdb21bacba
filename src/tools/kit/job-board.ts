import type { BackgroundJob, BackgroundJobs } from "./tool-services.js";

/** The session's background jobs, listed in the system prompt (seed 000 §2.15). */
export class JobBoard implements BackgroundJobs {
  private readonly jobs = new Map<string, BackgroundJob>();

  add(job: BackgroundJob): void {
    this.jobs.set(job.id, job);
  }

  get(id: string): BackgroundJob | undefined {
    return this.jobs.get(id);
  }

  list(): BackgroundJob[] {
    return [...this.jobs.values()];
  }

  summaries(): Array<{ id: string; description: string; status: string }> {
    return this.list().map((job) => ({ id: job.id, description: job.description, status: job.status() }));
  }

  cancelAll(): void {
    for (const job of this.jobs.values()) job.cancel();
  }
}

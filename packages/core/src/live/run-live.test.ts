import { liveRunConformance } from '../testing/live-run-conformance';
import { InMemorySessionService } from '../sessions/in-memory-session-service';

liveRunConformance('the in-memory store', () => new InMemorySessionService());

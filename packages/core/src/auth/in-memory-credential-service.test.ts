import { credentialServiceConformance } from '../testing/vitest';
import { InMemoryCredentialService } from './in-memory-credential-service';

credentialServiceConformance('in-memory', () => new InMemoryCredentialService());

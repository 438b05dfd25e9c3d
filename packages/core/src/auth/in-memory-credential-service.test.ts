import { credentialServiceConformance } from '../testing';
import { InMemoryCredentialService } from './in-memory-credential-service';

credentialServiceConformance('in-memory', () => new InMemoryCredentialService());

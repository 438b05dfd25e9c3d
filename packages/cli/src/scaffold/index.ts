export { createProject, type CreateProjectOptions } from './create-project';

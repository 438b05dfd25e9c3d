export * from './key-spec';
export * from './content-schema';
export * from './eval-case-schema';
export * from './eval-metric-schema';
export * from './eval-result-schema';
export * from './eval-config-schema';

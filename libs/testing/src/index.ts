export * from './test-stack';
export * from './contract/response-contract';
export * from './contract/contract-coverage';

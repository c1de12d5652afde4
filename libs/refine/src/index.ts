export * from './language-model';
export * from './language-model-error';
export * from './openai-chat-model';
export * from './refine-prompt';
export * from './refine-page';
export * from './text-fidelity';
export * from './page-chunks';
export * from './column-mapping';

export declare function which(name: string, env?: NodeJS.ProcessEnv): string | null;

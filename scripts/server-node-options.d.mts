export declare const SERVER_NODE_OPTIONS: string;

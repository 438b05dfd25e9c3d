export { newsTool } from './news-tool';
export { publishReportTool, reportFilename, writeReportTool } from './report-tools';
export { weatherTool } from './weather-tool';

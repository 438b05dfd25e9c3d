export {
  EXPECTED_WEATHER_EVENTS,
  runWeatherAgent,
  WEATHER_SCRIPT,
  type NormalisedEvent,
  type WeatherRun,
} from './weather-scenario';

import { Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from './data-source';
import { migrate } from './migrate';

/**
 * PostgreSQL for both apps. Pending migrations are applied when the data source is first
 * created, behind the advisory lock, before any module that needs the database starts.
 */
@Module({})
export class DbModule {
  static forRoot(): DynamicModule {
    return {
      module: DbModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [APP_CONFIG],
          useFactory: (config: AppConfig) => dataSourceOptions(config.database.url),
          dataSourceFactory: async (options) => {
            const dataSource = await new DataSource(options!).initialize();
            await migrate(dataSource);
            return dataSource;
          },
        }),
      ],
    };
  }
}

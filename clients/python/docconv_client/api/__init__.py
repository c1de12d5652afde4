# flake8: noqa

# import apis into api package
from docconv_client.api.account_api import AccountApi
from docconv_client.api.auth_api import AuthApi
from docconv_client.api.capabilities_api import CapabilitiesApi
from docconv_client.api.files_api import FilesApi
from docconv_client.api.health_api import HealthApi
from docconv_client.api.jobs_api import JobsApi
from docconv_client.api.keys_api import KeysApi
from docconv_client.api.payments_api import PaymentsApi
from docconv_client.api.pricing_api import PricingApi


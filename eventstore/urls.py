from django.urls import path

from eventstore.api import AuditDigestView

urlpatterns = [
    path("digest", AuditDigestView.as_view(), name="audit-digest"),
]

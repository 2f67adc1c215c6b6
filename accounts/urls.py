from django.urls import path

from accounts.views import MeView, ObtainTokenView, RegisterView

urlpatterns = [
    path("register", RegisterView.as_view(), name="auth-register"),
    path("token", ObtainTokenView.as_view(), name="auth-token"),
    path("me", MeView.as_view(), name="auth-me"),
]

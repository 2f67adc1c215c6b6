from django.urls import path

from accounts.views import LogoutView, MeView, ObtainTokenView, RegisterView

urlpatterns = [
    path("register", RegisterView.as_view(), name="auth-register"),
    path("token", ObtainTokenView.as_view(), name="auth-token"),
    path("logout", LogoutView.as_view(), name="auth-logout"),
    path("me", MeView.as_view(), name="auth-me"),
]

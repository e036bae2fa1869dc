import requests

r = requests.get("https://api.example.com/pets")
print(r.json())  # two spaces
